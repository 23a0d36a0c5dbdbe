# Attributes of user classes as Python computes them: property (getter, setter, read only),
# classmethod (bound to the class it is reached through: a subclass's), staticmethod, the
# __getattr__ hook for names found nowhere else, the __setattr__ hook for every store (which
# reaches the instance through object.__setattr__ or super().__setattr__), __delattr__, and the
# instance's __dict__ and vars(), live. MiniTorch's Module is written this way. Each expectation
# is what CPython prints.


class Parameter:
    def __init__(self, x=None, name=None):
        self.value = x
        self.name = name

    def update(self, x):
        self.value = x

    def __repr__(self):
        return "Parameter(" + repr(self.value) + ")"


class Module:
    def __init__(self):
        self._modules = {}
        self._parameters = {}
        self.training = True

    def modules(self):
        m = self.__dict__["_modules"]
        return list(m.values())

    def named_parameters(self):
        out = list(self.__dict__["_parameters"].items())
        for name, module in self.__dict__["_modules"].items():
            for n, p in module.named_parameters():
                out.append((name + "." + n, p))
        return out

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def add_parameter(self, k, v):
        val = Parameter(v, k)
        self.__dict__["_parameters"][k] = val
        return val

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
        return None

    def __call__(self, *args):
        return self.forward(*args)


class Linear(Module):
    def __init__(self, a, b):
        super().__init__()
        self.weights = Parameter(a)
        self.bias = self.add_parameter("bias", b)
        self.size = 2

    def forward(self, x):
        return self.weights.value * x + self.bias.value


class Network(Module):
    def __init__(self):
        super().__init__()
        self.layer1 = Linear(2.0, 1.0)
        self.layer2 = Linear(3.0, 0.5)
        self.p = Parameter(7)

    def forward(self, x):
        return self.layer2(self.layer1(x))


net = Network()
print(net.named_parameters())
# expect: [('p', Parameter(7)), ('layer1.weights', Parameter(2.0)), ('layer1.bias', Parameter(1.0)), ('layer2.weights', Parameter(3.0)), ('layer2.bias', Parameter(0.5))]
print(len(net.parameters()), len(net.modules()), net.layer1.size, net(1.0), net.missing)
# expect: 5 2 2 9.5 None
print(sorted(vars(net).keys()), "layer1" in net.__dict__, net.__dict__["training"])
# expect: ['_modules', '_parameters', 'training'] False True
net.layer1.weights.update(10.0)
print(net(1.0), net.training)
# expect: 33.5 True
object.__setattr__(net, "raw", Parameter(1))
print(net.raw, "raw" in net.__dict__["_parameters"])
# expect: Parameter(1) False


class Temperature:
    unit = "C"

    def __init__(self, c):
        self.celsius = c

    @property
    def fahrenheit(self):
        return self.celsius * 9 / 5 + 32

    @fahrenheit.setter
    def fahrenheit(self, f):
        self.celsius = (f - 32) * 5 / 9

    @property
    def kelvin(self):
        return self.celsius + 273.15

    @classmethod
    def freezing(cls):
        return cls(0)

    @classmethod
    def describe(cls, extra=""):
        return cls.__name__ + " in " + cls.unit + extra

    @staticmethod
    def check(v):
        return v > -273.15


class Celsius(Temperature):
    unit = "degrees C"


t = Temperature(100)
print(t.fahrenheit, t.kelvin)
# expect: 212.0 373.15
t.fahrenheit = 32
print(t.celsius, t.fahrenheit)
# expect: 0.0 32.0
print(Temperature.freezing().celsius, type(Celsius.freezing()).__name__)
# expect: 0 Celsius
print(Temperature.describe(), Celsius.describe("!"), Celsius(5).describe(), t.describe())
# expect: Temperature in C Celsius in degrees C! Celsius in degrees C Temperature in C
print(Temperature.check(-300), t.check(0))
# expect: False True
try:
    t.kelvin = 0
except AttributeError as e:
    print(e)
# expect: property 'kelvin' of 'Temperature' object has no setter
print(type(Temperature.fahrenheit).__name__, Temperature.fahrenheit.fget(t))
# expect: property 32.0


class Recorder:
    def __init__(self):
        object.__setattr__(self, "log", [])

    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self.log.append("del " + name)
        super().__delattr__(name)


r = Recorder()
r.a = 1
r.b = 2
r.a = 3
del r.b
print(r.log, r.a, hasattr(r, "b"), vars(r))
# expect: ['a', 'b', 'a', 'del b'] 3 False {'log': ['a', 'b', 'a', 'del b'], 'a': 3}
setattr(r, "c", 4)
print(r.log[-1], getattr(r, "c"), getattr(r, "zz", "default"))
# expect: c 4 default


class Lazy:
    def __init__(self):
        self.loaded = 1

    def __getattr__(self, name):
        if name[0] == "_":
            raise AttributeError(name)
        return "computed " + name


lz = Lazy()
print(lz.loaded, lz.other, hasattr(lz, "_hidden"), getattr(lz, "x"))
# expect: 1 computed other False computed x
lz.__dict__["direct"] = 5
print(lz.direct, len(lz.__dict__), list(lz.__dict__), lz.__dict__)
# expect: 5 2 ['loaded', 'direct'] {'loaded': 1, 'direct': 5}
print(lz.__dict__.get("loaded"), lz.__dict__.get("nope", 0), list(lz.__dict__.items()))
# expect: 1 0 [('loaded', 1), ('direct', 5)]
del lz.__dict__["direct"]
print(lz.direct)
# expect: computed direct
try:
    Lazy().__dict__["nope"]
except KeyError as e:
    print("KeyError", e)
# expect: KeyError 'nope'


# a bound method's __name__ is its function's (a library method's too)
class Named:
    def m(self):
        pass
print(Named().m.__name__, [].append.__name__, Named.m.__name__)
# expect: m append m
