module example.com/loop

go 1.19
