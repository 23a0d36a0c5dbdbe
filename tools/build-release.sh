#!/bin/sh
# build-release.sh [CMAKE OPTION...] — the release build in build/ (make build, Colab's set-up),
# run from the repository's root.
#
# Built by GCC, it is profile-guided: the language and its library (kernel/lang, kernel/lib),
# where a student's Python runs, are compiled knowing which branches and calls the course's code
# takes. build-pgo/ holds a kernel with those two layers instrumented (CMake's MT_PGO=generate);
# it runs the language scripts of tests/scripts/ (the course's code, students' Modules 0 to 3
# with their training loops included); their profile (.gcda files, one per object) is copied to
# the same places in build/, whose objects of those layers are then compiled again with it
# (MT_PGO=use). The training runs again only when the instrumented kernel changed.
#
# PGO=0 in the environment, or a compiler other than GCC, makes a plain release build.
set -eu
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if [ "${PGO:-1}" != 1 ] || ! "${CC:-cc}" --version 2>/dev/null | grep -q "Free Software"; then
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMT_PGO= "$@"
    exec cmake --build build -j"$jobs"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMT_PGO=use "$@"
# the instrumented kernel, without the tests, configured as build/ is (its MT_ options, also
# those an earlier configuration left in its cache: a source compiled with other definitions,
# MT_HAVE_CUDA, would not match its profile) and with build/'s include roots (GCC matches the
# profile of a header's function by the header's path)
options=$(sed -n 's/^\(MT_[A-Z_]*:[A-Z]*=.*\)$/-D\1/p' build/CMakeCache.txt)
# shellcheck disable=SC2086 # one option per word: the values have no spaces
cmake -S . -B build-pgo -DCMAKE_BUILD_TYPE=Release $options -DMT_PGO=generate \
    -DMT_BUILD_TESTS=OFF -DMT_LAYERS_DIR="$(pwd)/build/layers" >/dev/null
cmake --build build-pgo -j"$jobs" --target minitorch-kernel

stamp=build/pgo-profile.stamp
if [ ! -f "$stamp" ] || [ build-pgo/minitorch-kernel -nt "$stamp" ]; then
    echo "build-release.sh: the profile-guided build's training run (tests/scripts/*.mt)"
    find build-pgo/CMakeFiles -name '*.gcda' -delete
    root=$(pwd)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # in a directory of their own: the scripts write files (%%minitorch_file) where they run;
    # what they print, and whether they end in the error they expect, does not matter here
    for script in "$root"/tests/scripts/*.mt; do
        (cd "$work" && timeout 120 "$root/build-pgo/minitorch-kernel" run "$script" \
            >/dev/null 2>&1 </dev/null) || true
    done
    (cd build-pgo && find CMakeFiles -name '*.gcda') | while read -r gcda; do
        mkdir -p "build/$(dirname "$gcda")"
        cp "build-pgo/$gcda" "build/$gcda"
    done
    # compiled again, with the profile: CMake does not see it as an input of theirs
    find build/CMakeFiles/mt_lang.dir build/CMakeFiles/mt_lib.dir -name '*.o' -delete \
        2>/dev/null || true
    touch "$stamp"
fi
cmake --build build -j"$jobs"
