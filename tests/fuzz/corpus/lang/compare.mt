a = rand(4, 4)
compare("a @ a", backends=["simple", "fast"])
timing(sizes=[4, 8])
%diagnostics a.sum(1)
%time a + 1
