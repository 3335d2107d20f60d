module gopanic

go 1.19
