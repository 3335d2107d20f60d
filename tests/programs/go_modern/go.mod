module example.com/modern

go 1.23
