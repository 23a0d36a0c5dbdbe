total = 0
for i in range(10):
    if i % 3 == 0:
        continue
    elif i > 7:
        break
    else:
        total += i
while total > 0:
    total = total - 4
print("done", total)
