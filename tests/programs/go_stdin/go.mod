module example.com/stdin

go 1.19
