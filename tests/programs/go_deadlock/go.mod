module godeadlock

go 1.19
