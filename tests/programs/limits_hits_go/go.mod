module example.com/limits_hits

go 1.19
