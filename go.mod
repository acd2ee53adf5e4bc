module github.com/gopcp/gopcp

go 1.26.0

require github.com/ulikunitz/xz v0.5.15
