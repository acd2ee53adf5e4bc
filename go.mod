module github.com/gopcp/gopcp

go 1.26
