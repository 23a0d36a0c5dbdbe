%backend simple
%threads 1
x = rand(8, 8) @ rand(8, 8)
%backend fast
x.sum()
%nonsense
