#!/bin/sh
# A stand-in for a Python with PyTorch (tests/scripts/peers/pytorch_epoch.mt): it checks what the
# kernel runs it with (python -c SCRIPT DIGITS THREADS EPOCHS) and answers as the script would.
# The epoch count picks the answer: 7, no PyTorch; 8, a crash; 9, too few times; else the
# times THREADS*100+1 ... THREADS*100+EPOCHS, so that the median shows both numbers came through.
[ "$1" = "-c" ] || { echo "not run with -c: $1"; exit 2; }
case "$2" in *"def epoch_times("*) ;; *) echo "not the peer's script"; exit 2 ;; esac
[ -r "$3" ] || { echo "no digits file: $3"; exit 2; }
threads=$4
epochs=$5
case "$epochs" in
7) echo "no PyTorch: No module named 'torch'"; exit 3 ;;
8) echo "torch 9.9.9-fake"; echo "Traceback (most recent call last):"
   echo "RuntimeError: the fake crashed" >&2; exit 1 ;;
9) echo "torch 9.9.9-fake"; echo "epoch_ms 1.0 2.0"; exit 0 ;;
esac
echo "torch 9.9.9-fake"
echo "a warning PyTorch printed"
times=""
i=1
while [ "$i" -le "$epochs" ]; do
    times="$times $((threads * 100 + i))"
    i=$((i + 1))
done
echo "epoch_ms$times"
