# a value its type refuses: CPython's usage and error on stderr, then SystemExit(2)
import argparse
parser = argparse.ArgumentParser(prog="run_fast_tensor.py")
parser.add_argument("--PTS", type=int, default=50, help="number of points")
parser.add_argument("--RATE", type=float, default=0.05, help="learning rate")
args = parser.parse_args(["--RATE", "fast"])
# expect-tb: usage: run_fast_tensor.py [-h] [--PTS PTS] [--RATE RATE]
# expect-tb: run_fast_tensor.py: error: argument --RATE: invalid float value: 'fast'
# expect-tb:   Cell line 6, column 15:
# expect-error: SystemExit: 2
