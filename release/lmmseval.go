package release

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// lmmsEval is a task folder for lmms-eval: `lmms-eval --include_path DIR --tasks
// NAME` runs the release's hop questions. lmms-eval indexes every file ending in
// .yaml below an include path and takes one whose `task` is a string as a task
// (lmms_eval/tasks/__init__.py TaskManager._get_task_and_group @ 75571cfe); its
// built-in tasks win a name clash, so the name is the release's, prefixed
// "benchwright_". The data is the multihopspatial records as JSON Lines, loaded
// by datasets' json builder (dataset_path: json, api/task.py
// ConfigurableTask.download); the hooks in utils.py (!function, loaded from the
// YAML's folder by utils.import_function) score as lmms-eval's multihopspatial
// task does.
type lmmsEval struct{}

//go:embed lmmseval/utils.py
var lmmsUtils []byte

func (lmmsEval) Name() string { return "lmms-eval" }

// Holds takes hop QA with at most 4 options (what the scorers read), of one image or
// several: utils.py's doc_to_visual returns every image of the record's "images",
// in order, and lmms-eval hands the list to the model as the document's visuals
// (api/task.py ConfigurableTask.doc_to_visual, models' generate_until).
func (lmmsEval) Holds(s annotate.Sample) bool { return hopHeld(s) }

func (lmmsEval) Layout() string {
	return "TASK/TASK.yaml, TASK/utils.py, TASK/test.jsonl (multihopspatial records, one per line; a sample of several images adds images, " +
		"its paths in order, which doc_to_visual shows, and image_labels, box_image, frames; image_resolution is the size of the image the box is on) and TASK/images/ (upright); " +
		"run `lmms-eval --include_path DIR --tasks TASK` from TASK/ (lmms-eval before #1378 resolves data_files against the working folder)"
}

// LMMSTaskName is the lmms-eval task name of a release: "benchwright_" and the
// release name and version, lower-case, every other character an underscore.
func LMMSTaskName(info ExportInfo) string {
	name := strings.ToLower(info.Release.Name + "_" + info.Release.Version)
	var b strings.Builder
	b.WriteString("benchwright_")
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (lmmsEval) yaml(task string) string {
	return fmt.Sprintf(`# lmms-eval task for one frozen Benchwright release.
# Run from this folder: lmms-eval --model MODEL --include_path . --tasks %[1]s
task: %[1]s
dataset_path: json
dataset_kwargs:
  data_files:
    test: test.jsonl
test_split: test
output_type: generate_until
doc_to_visual: !function utils.doc_to_visual
doc_to_text: !function utils.doc_to_text
doc_to_target: answer
generation_kwargs:
  max_new_tokens: 512
  temperature: 0
  do_sample: false
process_results: !function utils.process_results
metric_list:
  - metric: mcq_acc
    aggregation: !function utils.mcq_acc
    higher_is_better: true
  - metric: acc50iou
    aggregation: !function utils.acc50iou
    higher_is_better: true
  - metric: avg_iou
    aggregation: !function utils.avg_iou
    higher_is_better: true
metadata:
  version: 1.0
`, task)
}

func (f lmmsEval) Write(_ context.Context, w *Writer, recs []Record) error {
	task := LMMSTaskName(w.Info())
	var lines [][]byte
	for _, r := range recs {
		b, err := multihopRecord(r, true)
		if err != nil {
			return err
		}
		lines = append(lines, b)
	}
	files := []struct {
		name string
		data []byte
	}{
		{task + ".yaml", []byte(f.yaml(task))},
		{"utils.py", lmmsUtils},
		{"test.jsonl", append(joinLines(lines), '\n')},
	}
	for _, file := range files {
		if err := w.WriteFile(task+"/"+file.name, func(out io.Writer) error {
			_, err := out.Write(file.data)
			return err
		}); err != nil {
			return err
		}
	}
	for _, r := range recs {
		ims, err := r.imageRecords()
		if err != nil {
			return err
		}
		for _, ir := range ims {
			if err := w.CopyUprightImage(task+"/images/"+ir.Sample.Image, ir); err != nil {
				return err
			}
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Read imports TASK/test.jsonl, the multihopspatial records as JSON Lines, with
// annotate.ImportLMMSEval (ImportMultihop and the sequence fields); TASK is the one folder of dir holding TASK.yaml and
// test.jsonl. Image paths are relative to TASK/images/.
func (lmmsEval) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var tasks []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		yaml, err1 := os.Stat(filepath.Join(dir, e.Name(), e.Name()+".yaml"))
		data, err2 := os.Stat(filepath.Join(dir, e.Name(), "test.jsonl"))
		if err1 == nil && err2 == nil && yaml.Mode().IsRegular() && data.Mode().IsRegular() {
			tasks = append(tasks, e.Name())
		}
	}
	switch len(tasks) {
	case 0:
		return nil, fmt.Errorf("read %s: no task folder TASK/ holding TASK.yaml and test.jsonl", dir)
	case 1:
	default:
		return nil, fmt.Errorf("read %s: several task folders (%s)", dir, strings.Join(tasks, ", "))
	}
	name := tasks[0] + "/test.jsonl"
	if blank, err := blankFile(filepath.Join(dir, name)); err != nil || blank {
		return nil, err // a release without hop questions
	}
	return readImported(ctx, dir, name, func(r io.Reader) ([]annotate.Imported, []annotate.RecordError, error) {
		return annotate.ImportLMMSEval(r, annotate.ImportOptions{})
	})
}

func joinLines(lines [][]byte) []byte {
	var out []byte
	for i, l := range lines {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, l...)
	}
	return out
}
