module github.com/benchwright/benchwright

go 1.26.8

require (
	fyne.io/fyne/v2 v2.7.1 // indirect
	github.com/disintegration/imaging v1.6.2 // indirect
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	github.com/montanaflynn/stats v0.14.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/image v0.24.0 // indirect
)
