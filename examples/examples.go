// Package examples embeds the example job and plan files so the web UI can
// offer them as presets. Each file documents itself in its header comment.
package examples

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// zhHeaders are the examples' header comments in Chinese (zh/NAME.txt),
// shown in place of the English ones on Chinese pages.
//
//go:embed zh/*.txt
var zhHeaders embed.FS

// Job is one example job description for the advisor.
type Job struct {
	Name  string // file name without .yaml
	Title string // its name: field, else the file name
	YAML  string
}

// Jobs lists the advisor examples (the files with a workload), by name.
func Jobs() []Job {
	names, _ := fs.Glob(files, "*.yaml")
	sort.Strings(names)
	var out []Job
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil || !strings.Contains(string(b), "\nworkload:") {
			continue
		}
		title := strings.TrimSuffix(n, ".yaml")
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "name:"); ok {
				title = strings.Trim(strings.TrimSpace(v), `"'`)
				break
			}
		}
		out = append(out, Job{Name: strings.TrimSuffix(n, ".yaml"), Title: title, YAML: string(b)})
	}
	return out
}

// Chinese is the job with its header comment (the leading lines starting
// with #) in Chinese, when the example has one; the job itself is the
// same.
func (j Job) Chinese() string {
	zh, err := zhHeaders.ReadFile("zh/" + j.Name + ".txt")
	if err != nil {
		return j.YAML
	}
	lines := strings.SplitAfter(j.YAML, "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(lines[i], "#") {
		i++
	}
	return string(zh) + strings.Join(lines[i:], "")
}
