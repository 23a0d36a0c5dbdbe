# __init__ must return None
class Bad:
    def __init__(self):
        return 1


Bad()
# expect-error: TypeError: __init__() should return None, not 'int'
