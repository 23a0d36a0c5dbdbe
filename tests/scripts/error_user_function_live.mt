# A user function whose program needs more values alive at once than the engine's
# buffers (48) is a CompileError that says so, pointing at the function.
def f(x):
    a0 = x * 1.5
    a1 = x * 2.5
    a2 = x * 3.5
    a3 = x * 4.5
    a4 = x * 5.5
    a5 = x * 6.5
    a6 = x * 7.5
    a7 = x * 8.5
    a8 = x * 9.5
    a9 = x * 10.5
    a10 = x * 11.5
    a11 = x * 12.5
    a12 = x * 13.5
    a13 = x * 14.5
    a14 = x * 15.5
    a15 = x * 16.5
    a16 = x * 17.5
    a17 = x * 18.5
    a18 = x * 19.5
    a19 = x * 20.5
    a20 = x * 21.5
    a21 = x * 22.5
    a22 = x * 23.5
    a23 = x * 24.5
    a24 = x * 25.5
    a25 = x * 26.5
    a26 = x * 27.5
    a27 = x * 28.5
    a28 = x * 29.5
    a29 = x * 30.5
    a30 = x * 31.5
    a31 = x * 32.5
    a32 = x * 33.5
    a33 = x * 34.5
    a34 = x * 35.5
    a35 = x * 36.5
    a36 = x * 37.5
    a37 = x * 38.5
    a38 = x * 39.5
    a39 = x * 40.5
    a40 = x * 41.5
    a41 = x * 42.5
    a42 = x * 43.5
    a43 = x * 44.5
    a44 = x * 45.5
    a45 = x * 46.5
    a46 = x * 47.5
    a47 = x * 48.5
    a48 = x * 49.5
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39 + a40 + a41 + a42 + a43 + a44 + a45 + a46 + a47 + a48
y = map(f, ones(3))
# expect-error: CompileError: map(f): more than 48 values are needed at once; split the function
