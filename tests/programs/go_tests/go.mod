module example.com/pricing

go 1.19
