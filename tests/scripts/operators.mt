# numbers, strings, lists and booleans under the operators, with Python's semantics
print(7 // 2, -7 // 2, 7 % 3, -7 % 3, 7.5 // 2, 2 ** 10, 2 ** -1, 10 / 4)
# expect: 3 -4 1 2 3.0 1024 0.5 2.5
print(1 < 2 < 3, 1 < 2 > 3, 1 == 1.0, "a" < "b", [1, 2] == [1, 2], 3 != 3)
# expect: True False True True True False
# and/or give one of their operands, as in Python
print(0 or "x", 1 and 2, not 0, none or 5, [] or [1], "" and 1 or "empty")
# expect: x 2 True 5 [1] empty
print("ab" + "cd", "ab" * 3, [1] + [2, 3], [0] * 3, [1, 2, 3][-1], "hello"[1])
# expect: abcd ababab [1, 2, 3] [0, 0, 0] 3 e
# empty times a huge count is empty at once (the language fuzzer's "" * 504888888888 hung)
print(len("" * 504888888888), [] * 10 ** 12, len("ab" * 0))
# expect: 0 [] 0
print(-2 ** 2, (-2) ** 2, 2 + 3 * 4, (2 + 3) * 4, 1 - 2 - 3, 2 ** 3 ** 2)
# expect: -4 4 14 20 -4 512
x = 5
x += 2; x *= 3; x -= 1; x /= 4
print(x)
# expect: 5.0
y = 7
y //= 2; y **= 3; y %= 5
print(y)
# expect: 2
s = "ab"
s += "c"; s *= 2
print(s, 1e3, 1.5e-3, 0.1 + 0.2, 10 ** 15, 2.0 ** 60)
# expect: abcabc 1000.0 0.0015 0.30000000000000004 1000000000000000 1.152921504606847e+18
