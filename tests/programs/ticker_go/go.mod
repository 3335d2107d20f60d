module example.com/ticker

go 1.19
