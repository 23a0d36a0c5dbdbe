# a misspelt name gets a suggestion
values = [1, 2]
print(len(valeus))
# expect-error: NameError: name 'valeus' is not defined, did you mean 'values'?
