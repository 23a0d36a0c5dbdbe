# deriving from a built-in type is outside the language
class MyList(list):
    pass
# expect-error: NotImplementedError: deriving from the built-in type 'list' is not supported in the MiniTorch language (derive from object, a class of your own or a minitorch class)
