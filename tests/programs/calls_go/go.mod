module example.com/calls

go 1.19
