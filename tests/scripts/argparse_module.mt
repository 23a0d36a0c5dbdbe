# argparse as MiniTorch's project scripts use it, against CPython 3.11: a cell has no command
# line, so parse_args() gives the defaults; a list given is parsed. Expected lines: python3
# running this file (tests/scripts/README.md), whose own command line is empty too.
import argparse

# project/run_fast_tensor.py's arguments
parser = argparse.ArgumentParser(prog="run_fast_tensor.py", description="Train a model.")
parser.add_argument("--PTS", type=int, default=50, help="number of points")
parser.add_argument("--HIDDEN", type=int, default=10, help="number of hiddens")
parser.add_argument("--RATE", type=float, default=0.05, help="learning rate")
parser.add_argument("--BACKEND", default="cpu", help="backend mode")
parser.add_argument("--DATASET", default="simple", help="dataset")
parser.add_argument("--PLOT", default=False, help="dataset")
args = parser.parse_args()
print(args)
# expect: Namespace(PTS=50, HIDDEN=10, RATE=0.05, BACKEND='cpu', DATASET='simple', PLOT=False)
print(args.PTS, args.HIDDEN, args.RATE, args.BACKEND, args.DATASET, args.PLOT)
# expect: 50 10 0.05 cpu simple False
print(type(args).__name__, isinstance(args, argparse.Namespace))
# expect: Namespace True

# a list of strings is parsed: `--name value`, `--name=value`, abbreviations
args = parser.parse_args(["--PTS", "100", "--RATE=0.5", "--BACK", "gpu"])
print(args.PTS, args.RATE, args.BACKEND, args.HIDDEN)
# expect: 100 0.5 gpu 10
parser.print_help()
# expect: usage: run_fast_tensor.py [-h] [--PTS PTS] [--HIDDEN HIDDEN] [--RATE RATE]
# expect:                           [--BACKEND BACKEND] [--DATASET DATASET]
# expect:                           [--PLOT PLOT]
# expect:
# expect: Train a model.
# expect:
# expect: options:
# expect:   -h, --help         show this help message and exit
# expect:   --PTS PTS          number of points
# expect:   --HIDDEN HIDDEN    number of hiddens
# expect:   --RATE RATE        learning rate
# expect:   --BACKEND BACKEND  backend mode
# expect:   --DATASET DATASET  dataset
# expect:   --PLOT PLOT        dataset
print(parser.format_usage(), end="")
# expect: usage: run_fast_tensor.py [-h] [--PTS PTS] [--HIDDEN HIDDEN] [--RATE RATE]
# expect:                           [--BACKEND BACKEND] [--DATASET DATASET]
# expect:                           [--PLOT PLOT]
print(parser)
# expect: ArgumentParser(prog='run_fast_tensor.py', usage=None, description='Train a model.', formatter_class=<class 'argparse.HelpFormatter'>, conflict_handler='error', add_help=True)

# what add_argument returns: the action
print(parser.add_argument("--flag", action="store_true"))
# expect: _StoreTrueAction(option_strings=['--flag'], dest='flag', nargs=0, const=True, default=False, type=None, choices=None, required=False, help=None, metavar=None)
print(parser.add_argument("-n", "--num-layers", type=int, help="layers"))
# expect: _StoreAction(option_strings=['-n', '--num-layers'], dest='num_layers', nargs=None, const=None, default=None, type=<class 'int'>, choices=None, required=False, help='layers', metavar=None)
print(parser.parse_args(["-n3", "--flag"]))
# expect: Namespace(PTS=50, HIDDEN=10, RATE=0.05, BACKEND='cpu', DATASET='simple', PLOT=False, flag=True, num_layers=3)

# project/app.py's: a positional and a flag with its own dest
app = argparse.ArgumentParser(prog="app.py")
app.add_argument("module_num", type=int)
app.add_argument("--hide_function_defs", action="store_true", dest="hide_function_defs")
print(app.parse_args(["3"]))
# expect: Namespace(module_num=3, hide_function_defs=False)
app.print_help()
# expect: usage: app.py [-h] [--hide_function_defs] module_num
# expect:
# expect: positional arguments:
# expect:   module_num
# expect:
# expect: options:
# expect:   -h, --help            show this help message and exit
# expect:   --hide_function_defs

# the other actions, nargs, choices, a parser's defaults and what is left over
p = argparse.ArgumentParser(prog="p", epilog="%(prog)s ends here.")
p.add_argument("-v", "--verbose", action="count", default=0)
p.add_argument("-n", type=int, nargs="+", help="sizes (default: %(default)s)")
p.add_argument("--mode", choices=["sum", "mean"], default="sum", help="one of %(choices)s")
p.add_argument("--tag", action="append")
p.add_argument("-x", action="store_const", const=42)
p.add_argument("--opt", nargs="?", const="c", default="d")
p.add_argument("--two", nargs=2, metavar=("A", "B"))
p.add_argument("--quiet", action="store_false")
p.add_argument("--hidden-one", help=argparse.SUPPRESS)
p.add_argument("files", nargs="*")
print(p.parse_args(["-vv", "-n", "1", "2", "--tag", "t1", "--tag=t2", "-x", "f1", "f2", "--mode", "mean"]))
# expect: Namespace(verbose=2, n=[1, 2], mode='mean', tag=['t1', 't2'], x=42, opt='d', two=None, quiet=True, hidden_one=None, files=['f1', 'f2'])
print(p.parse_args(["-n5", "--opt", "--two", "a", "b", "--", "-f"]))
# expect: Namespace(verbose=0, n=[5], mode='sum', tag=None, x=None, opt='c', two=['a', 'b'], quiet=True, hidden_one=None, files=['-f'])
print(p.parse_known_args(["--lr", "-1", "f", "--quiet"]))
# expect: (Namespace(verbose=0, n=None, mode='sum', tag=None, x=None, opt='d', two=None, quiet=False, hidden_one=None, files=['-1', 'f']), ['--lr'])
p.set_defaults(extra=7)
print(p.parse_args([]), p.get_default("mode"), p.get_default("extra"))
# expect: Namespace(verbose=0, n=None, mode='sum', tag=None, x=None, opt='d', two=None, quiet=True, hidden_one=None, files=[], extra=7) sum 7
p.print_help()
# expect: usage: p [-h] [-v] [-n N [N ...]] [--mode {sum,mean}] [--tag TAG] [-x]
# expect:          [--opt [OPT]] [--two A B] [--quiet]
# expect:          [files ...]
# expect:
# expect: positional arguments:
# expect:   files
# expect:
# expect: options:
# expect:   -h, --help         show this help message and exit
# expect:   -v, --verbose
# expect:   -n N [N ...]       sizes (default: None)
# expect:   --mode {sum,mean}  one of sum, mean
# expect:   --tag TAG
# expect:   -x
# expect:   --opt [OPT]
# expect:   --two A B
# expect:   --quiet
# expect:
# expect: p ends here.

# a string default goes through type; negative numbers are values
q = argparse.ArgumentParser(prog="q")
q.add_argument("--x", type=int, default="7")
q.add_argument("--lr", type=float)
print(q.parse_args([]), q.parse_args(["--lr", "-0.5"]), q.parse_args(["--lr=-1e-3"]).lr)
# expect: Namespace(x=7, lr=None) Namespace(x=7, lr=-0.5) -0.001

# Namespace by itself
ns = argparse.Namespace(a=1, b="x")
ns.c = [1, 2]
print(ns, ns.a)
# expect: Namespace(a=1, b='x', c=[1, 2]) 1
print(argparse.Namespace(), argparse.SUPPRESS)
# expect: Namespace() ==SUPPRESS==

# a long usage wraps as CPython wraps it, and long help under its option
w = argparse.ArgumentParser(prog="train_a_very_small_network.py", description="This program trains a small network on one of MiniTorch's datasets, with the backend you choose, and draws the loss as it goes.")
w.add_argument("--POINTS-TO-GENERATE", type=int, default=50, help="number of points that each of the datasets generates, the default is %(default)s, of type %(type)s")
w.add_argument("--BACKEND", choices=["cpu", "gpu", "student"], default="cpu", help="backend mode")
w.add_argument("--a-really-long-option-name-here", help="x")
w.add_argument("--nohelp")
w.add_argument("infile", help="the input file")
w.add_argument("outfiles", nargs="+", help="the output files")
w.print_help()
# expect: usage: train_a_very_small_network.py [-h]
# expect:                                      [--POINTS-TO-GENERATE POINTS_TO_GENERATE]
# expect:                                      [--BACKEND {cpu,gpu,student}]
# expect:                                      [--a-really-long-option-name-here A_REALLY_LONG_OPTION_NAME_HERE]
# expect:                                      [--nohelp NOHELP]
# expect:                                      infile outfiles [outfiles ...]
# expect:
# expect: This program trains a small network on one of MiniTorch's datasets, with the
# expect: backend you choose, and draws the loss as it goes.
# expect:
# expect: positional arguments:
# expect:   infile                the input file
# expect:   outfiles              the output files
# expect:
# expect: options:
# expect:   -h, --help            show this help message and exit
# expect:   --POINTS-TO-GENERATE POINTS_TO_GENERATE
# expect:                         number of points that each of the datasets generates,
# expect:                         the default is 50, of type int
# expect:   --BACKEND {cpu,gpu,student}
# expect:                         backend mode
# expect:   --a-really-long-option-name-here A_REALLY_LONG_OPTION_NAME_HERE
# expect:                         x
# expect:   --nohelp NOHELP
