package cli

import (
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// Flag and job-file errors as the flag parser and the job-file reader
// word them, and the i18n keys that say them in another language
// (compiled on first use: most runs print no error).
var (
	flagUnknown  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown (?:shorthand )?flag: (.+)$`) })
	flagNeedsArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag needs an argument: (.+)$`) })
	flagInvalid  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^invalid argument ("[^"]*") for ("[^"]*") flag: (.+)$`)
	})
	jobLineNot = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("line (\\d+): (`[^`]*`|\\S+) is not (a number|a whole number|a list|true or false|text)")
	})
	jobUnknown = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+): field (\S+) not found in (\S+)`) })
)

var jobWords = map[string]string{"a number": "err.job.word.number", "a whole number": "err.job.word.whole", "a list": "err.job.word.list",
	"true or false": "err.job.word.bool", "text": "err.job.word.text"}

// localMsg is an error's message in p's language where the error is one
// gpuscout words itself (requirements, unknown names, flags, job-file
// values); else msg as it is.
func localMsg(err error, msg string, p *i18n.Printer) string {
	var ie *recommend.InputError
	if errors.As(err, &ie) {
		return strings.Replace(msg, ie.Error(), ie.In(p), 1)
	}
	var me *perf.MsgError
	if errors.As(err, &me) {
		return strings.Replace(msg, me.Error(), p.M(me.Msg), 1)
	}
	switch m := msg; {
	case flagUnknown().MatchString(m):
		return p.T("err.flag.unknown", flagUnknown().FindStringSubmatch(m)[1])
	case flagNeedsArg().MatchString(m):
		return p.T("err.flag.needs_arg", flagNeedsArg().FindStringSubmatch(m)[1])
	case flagInvalid().MatchString(m):
		g := flagInvalid().FindStringSubmatch(m)
		return p.T("err.flag.invalid", g[1], g[2], g[3])
	}
	msg = jobLineNot().ReplaceAllStringFunc(msg, func(s string) string {
		g := jobLineNot().FindStringSubmatch(s)
		return p.T("err.job.line_not", g[1], g[2], p.T(jobWords[g[3]]))
	})
	return jobUnknown().ReplaceAllStringFunc(msg, func(s string) string {
		g := jobUnknown().FindStringSubmatch(s)
		return p.T("err.job.field_unknown", g[1], g[2], g[3])
	})
}
