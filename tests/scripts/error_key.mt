# A missing key is Python's KeyError, whose message is the key's repr, located at the subscript.
scores = {"alice": 3, "bob": 5}
print(scores["bob"])
# expect: 5
scores["carol"]
# expect-error: KeyError: 'carol'
# expect-tb:   Cell line 5, column 7:
# expect-tb:     scores["carol"]
# expect-tb:           ^
