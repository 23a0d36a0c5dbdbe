#!/bin/sh
# build-release.sh [--lab] [CMAKE OPTION...] — the release build, run from the repository's root.
#
#   (no --lab)  build/: everything (make build, make test): the kernel, the engine's libraries,
#               the C tests, and the cuda backend wherever nvcc is found.
#   --lab       build-lab/: what a student runs (make lab, make notebook, Colab's set-up): the
#               kernel alone, no C tests, and the cuda backend only where a GPU driver is loaded
#               (nvcc compiles slowly, and its code could not run here anyway). A CMake option
#               given after --lab wins (say -DMT_CUDA=ON).
#
# Built by GCC, it is profile-guided: the language and its library (kernel/lang, kernel/lib),
# where a student's Python runs, are compiled knowing which branches and calls the course's code
# takes. DIR-pgo/ holds a kernel with those two layers instrumented (CMake's MT_PGO=generate);
# it runs the language scripts of tests/scripts/ (the course's code, students' Modules 0 to 3
# with their training loops included); their profile (.gcda files, one per object) is copied to
# the same places in DIR/, whose objects of those layers are then compiled again with it
# (MT_PGO=use). The training runs again only when the instrumented kernel changed.
#
# PGO=0 in the environment, or a compiler other than GCC, makes a plain release build.
set -eu
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

dir=build
target=all
if [ "${1:-}" = --lab ]; then
    shift
    dir=build-lab
    target=minitorch-kernel
    cuda=OFF
    # the driver's files, in a container too: the toolkit alone (nvcc) is no GPU
    if [ -e "${MT_NVIDIA_PROC:-/proc/driver/nvidia/version}" ]; then cuda=AUTO; fi
    set -- -DMT_BUILD_TESTS=OFF -DMT_CUDA="$cuda" "$@"
fi

if [ "${PGO:-1}" != 1 ] || ! "${CC:-cc}" --version 2>/dev/null | grep -q "Free Software"; then
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMT_PGO= "$@"
    exec cmake --build "$dir" -j"$jobs" --target "$target"
fi

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMT_PGO=use "$@"
# the instrumented kernel, without the tests, configured as DIR/ is (its MT_ options, also
# those an earlier configuration left in its cache: a source compiled with other definitions,
# MT_HAVE_CUDA, would not match its profile) and with DIR/'s include roots (GCC matches the
# profile of a header's function by the header's path)
options=$(sed -n 's/^\(MT_[A-Z_]*:[A-Z]*=.*\)$/-D\1/p' "$dir/CMakeCache.txt")
# shellcheck disable=SC2086 # one option per word: the values have no spaces
cmake -S . -B "$dir-pgo" -DCMAKE_BUILD_TYPE=Release $options -DMT_PGO=generate \
    -DMT_BUILD_TESTS=OFF -DMT_LAYERS_DIR="$(pwd)/$dir/layers" >/dev/null
cmake --build "$dir-pgo" -j"$jobs" --target minitorch-kernel

stamp=$dir/pgo-profile.stamp
if [ ! -f "$stamp" ] || [ "$dir-pgo/minitorch-kernel" -nt "$stamp" ]; then
    echo "build-release.sh: the profile-guided build's training run (tests/scripts/*.mt)"
    find "$dir-pgo/CMakeFiles" -name '*.gcda' -delete
    root=$(pwd)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # in a directory of their own: the scripts write files (%%minitorch_file) where they run;
    # what they print, and whether they end in the error they expect, does not matter here
    for script in "$root"/tests/scripts/*.mt; do
        (cd "$work" && timeout 120 "$root/$dir-pgo/minitorch-kernel" run "$script" \
            >/dev/null 2>&1 </dev/null) || true
    done
    (cd "$dir-pgo" && find CMakeFiles -name '*.gcda') | while read -r gcda; do
        mkdir -p "$dir/$(dirname "$gcda")"
        cp "$dir-pgo/$gcda" "$dir/$gcda"
    done
    # compiled again, with the profile: CMake does not see it as an input of theirs
    find "$dir/CMakeFiles/mt_lang.dir" "$dir/CMakeFiles/mt_lib.dir" -name '*.o' -delete \
        2>/dev/null || true
    touch "$stamp"
fi
cmake --build "$dir" -j"$jobs" --target "$target"
