# -h prints the help to stdout and raises SystemExit(0), as CPython does
import argparse
parser = argparse.ArgumentParser(prog="run_fast_tensor.py", description="Train a model.")
parser.add_argument("--PTS", type=int, default=50, help="number of points")
parser.parse_args(["-h"])
# expect: usage: run_fast_tensor.py [-h] [--PTS PTS]
# expect:
# expect: Train a model.
# expect:
# expect: options:
# expect:   -h, --help  show this help message and exit
# expect:   --PTS PTS   number of points
# expect-error: SystemExit: 0
