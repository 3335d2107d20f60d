module example.com/same_name

go 1.19
