# the match statement is not in the language (match stays an ordinary name)
match = 3
match match:
    case 3:
        print("three")
# expect-tb:   Cell line 3, column 1:
# expect-error: SyntaxError: the `match` statement is not supported in the MiniTorch language: use if/elif
