%backend fast
m = rand(2, 16, 8)
n = rand(1, 8, 4)
(m @ n).mean(2).max(1)
-m.exp().log().sigmoid().inv()
m.view(2, 128) < 0.5
