"""A student's module.py (Task 0.4), correct, for tests/kernel/lib/test_check_course.c."""


class Module:
    def __init__(self):
        self._modules = {}
        self._parameters = {}
        self.training = True

    def modules(self):
        return list(self.__dict__["_modules"].values())

    def train(self):
        self.training = True
        for m in self.modules():
            m.train()

    def eval(self):
        self.training = False
        for m in self.modules():
            m.eval()

    def named_parameters(self):
        out = list(self.__dict__["_parameters"].items())
        for name, m in self.__dict__["_modules"].items():
            for k, p in m.named_parameters():
                out.append((name + "." + k, p))
        return out

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def add_parameter(self, k, v):
        p = Parameter(v, k)
        self.__dict__["_parameters"][k] = p
        return p

    def __setattr__(self, key, val):
        if isinstance(val, Parameter):
            self.__dict__["_parameters"][key] = val
        elif isinstance(val, Module):
            self.__dict__["_modules"][key] = val
        else:
            super().__setattr__(key, val)

    def __getattr__(self, key):
        if key in self.__dict__["_parameters"]:
            return self.__dict__["_parameters"][key]
        if key in self.__dict__["_modules"]:
            return self.__dict__["_modules"][key]
        raise AttributeError(key)


class Parameter:
    def __init__(self, x, name=None):
        self.value = x
        self.name = name
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)

    def update(self, x):
        self.value = x
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)
