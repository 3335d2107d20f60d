module example.com/hold

go 1.22
