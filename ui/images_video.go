package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
	"github.com/benchwright/benchwright/video"
)

// "Import video…" in the gallery (leads): the frames of a video become project
// images with their provenance, as bwctl import-video makes them (video.ImportVideo,
// off the UI goroutine), and the app then offers a video sample of them.

// videoFramesDir is the folder on this workstation the frames are written into:
// video-frames beside a project file, or in the user's cache for a team server
// (whose import uploads them).
func (u *App) videoFramesDir() (string, error) {
	if dir := u.filesDir(); dir != "" && !u.onServer() {
		return filepath.Join(dir, "video-frames"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "benchwright", "video-frames"), nil
}

// askImportVideo asks for a video file, then how many frames and how to take them.
func (u *App) askImportVideo() {
	if err := video.Available(); err != nil {
		dialog.ShowInformation("Import video", err.Error()+".", u.win)
		return
	}
	dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		file := r.URI().Path()
		r.Close()
		u.askVideoOptions(file)
	}, u.win)
}

// askVideoOptions asks the number of frames and the sampling of file, then imports.
func (u *App) askVideoOptions(file string) {
	frames := widget.NewEntry()
	frames.SetText("8")
	sampling := widget.NewSelect(video.Samplings, nil)
	sampling.SetSelected(video.Uniform)
	items := []*widget.FormItem{
		{Text: "Frames", Widget: frames, HintText: fmt.Sprintf("1 to %d (SpatialScore takes 8)", annotate.MaxImages)},
		{Text: "Sampling", Widget: sampling, HintText: "uniform: first, last and evenly spaced (lmms-eval, SpatialScore)"},
	}
	dialog.ShowForm("Import "+filepath.Base(file), "Import", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(frames.Text))
		if err != nil || n < 1 || n > annotate.MaxImages {
			dialog.ShowInformation("Import video", fmt.Sprintf("Frames is a number from 1 to %d.", annotate.MaxImages), u.win)
			return
		}
		u.runImportVideo(file, video.ImportOptions{Frames: n, Sampling: sampling.Selected}, nil)
	}, u.win)
}

// runImportVideo imports file's frames off the UI goroutine with a Cancel button,
// then says what came of it and offers a video sample of the frames. done, if set,
// runs on the UI goroutine with the frames' paths (nil on failure).
func (u *App) runImportVideo(file string, opts video.ImportOptions, done func(paths []string)) {
	root, err := u.videoFramesDir()
	if err != nil {
		u.showError(fmt.Errorf("no folder for the frames: %w", err))
		return
	}
	opts.Root = root
	ctx, cancel := context.WithCancel(u.ctx())
	bar := widget.NewProgressBarInfinite()
	dlg := dialog.NewCustomWithoutButtons("Importing "+filepath.Base(file),
		container.NewVBox(widget.NewLabel(fmt.Sprintf("Taking %d frames with ffmpeg and importing them…", opts.Frames)), bar,
			widget.NewButton("Cancel", cancel)), u.win)
	dlg.Resize(fyne.NewSize(480, 160))
	dlg.Show()
	sess, pid := u.sess, u.project.ID
	inBackground(func() {
		paths, err := video.ImportVideo(ctx, sess, pid, file, opts)
		cancel()
		fyne.Do(func() {
			bar.Stop()
			dlg.Hide()
			u.videoImported(file, paths, err)
			if done != nil {
				done(paths)
			}
		})
	})
}

// videoImported says what an import of a video did and offers a sample of its frames.
func (u *App) videoImported(file string, paths []string, err error) {
	if err != nil {
		msg := bench.Message(err)
		if !strings.Contains(msg, filepath.Base(file)) {
			msg = filepath.Base(file) + ": " + msg
		}
		dialog.ShowInformation("Video not imported", msg+"\nNothing of it was imported.", u.win)
		return
	}
	u.refreshStatus()
	list := widget.NewLabel(strings.Join(paths, "\n"))
	body := container.NewBorder(widget.NewLabel(fmt.Sprintf("%s: %d frames imported, in order:", filepath.Base(file), len(paths))), nil, nil, nil,
		container.NewVScroll(list))
	if !u.may(verify.ActionWriteSamples) || len(paths) < 2 {
		d := dialog.NewCustom("Video imported", "Close", body, u.win)
		d.Resize(fyne.NewSize(520, 360))
		d.Show()
		return
	}
	d := dialog.NewCustomConfirm("Video imported", "Make a video sample of them", "Close", body, func(ok bool) {
		if ok {
			u.newSampleOfPaths(paths)
		}
	}, u.win)
	d.Resize(fyne.NewSize(520, 360))
	d.Show()
}
