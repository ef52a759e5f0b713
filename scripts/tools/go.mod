module github.com/benchwright/benchwright/scripts/tools

// The fyne tool that scripts/dev package runs, pinned (go get -tool fyne.io/tools/cmd/fyne@VERSION
// here to move it). A module of its own, so the app's go.mod does not carry the tool's dependencies.

go 1.26.8

tool fyne.io/tools/cmd/fyne

require (
	fyne.io/fyne/v2 v2.7.0 // indirect
	fyne.io/tools v1.7.2 // indirect
	github.com/BurntSushi/toml v1.5.0 // indirect
	github.com/akavel/rsrc v0.10.2 // indirect
	github.com/cpuguy83/go-md2man/v2 v2.0.2 // indirect
	github.com/fogleman/gg v1.3.0 // indirect
	github.com/fyne-io/image v0.1.1 // indirect
	github.com/go-ole/go-ole v1.3.0 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/jackmordaunt/icns/v2 v2.2.6 // indirect
	github.com/josephspurrier/goversioninfo v1.4.0 // indirect
	github.com/jsummers/gobmp v0.0.0-20230614200233-a9de23ed2e25 // indirect
	github.com/lucor/goinfo v0.9.0 // indirect
	github.com/mcuadros/go-version v0.0.0-20190830083331-035f6764e8d2 // indirect
	github.com/natefinch/atomic v1.0.1 // indirect
	github.com/nfnt/resize v0.0.0-20180221191011-83c6a9932646 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/urfave/cli/v2 v2.27.1 // indirect
	github.com/xrash/smetrics v0.0.0-20201216005158-039620a65673 // indirect
	golang.org/x/image v0.24.0 // indirect
	golang.org/x/mod v0.20.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/tools v0.24.1 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
)
