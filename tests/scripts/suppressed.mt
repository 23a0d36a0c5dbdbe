# a trailing ';' hides the cell's result; expression statements before the last show nothing
x = 1
x + 100
"not shown"
x + 1;
