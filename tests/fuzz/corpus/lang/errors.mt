a = zeros(2, 3)
b = ones(3, 2)
a @ b
a + b
undefined_name + 1
"text" * 3
