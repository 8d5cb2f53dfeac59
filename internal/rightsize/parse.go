package rightsize

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Format is a metrics log format.
type Format string

// The formats Parse reads.
const (
	FormatAuto   Format = ""
	FormatNVSMI  Format = "nvidia-smi-csv"
	FormatDCGM   Format = "dcgm-prometheus"
	maxBadReport        = 5
)

// ParseFormat parses a --format value.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "nvidia-smi", "nvidia-smi-csv", "csv", "nvsmi":
		return FormatNVSMI, nil
	case "dcgm", "dcgm-prometheus", "prometheus", "dcgm-exporter":
		return FormatDCGM, nil
	}
	return "", fmt.Errorf("unknown metrics format %q (use auto, nvidia-smi or dcgm)", s)
}

// Which fields a sample carries.
const (
	HasTime uint8 = 1 << iota
	HasUtil
	HasMemUtil
	HasMemUsed
	HasMemTotal
)

// Sample is one reading of one GPU.
type Sample struct {
	GPU int // index into ParseReport.GPUs
	// TimeMs is milliseconds since 1970-01-01 as written in the log: UTC
	// for DCGM timestamps, the wall clock of the machine for nvidia-smi.
	TimeMs int64
	// Seq numbers the samples of one GPU from 0 (a time for logs without
	// timestamps).
	Seq         int64
	Util        float64 // GPU utilisation, percent
	MemUtil     float64 // memory-controller (copy) utilisation, percent
	MemUsedMiB  float64
	MemTotalMiB float64
	Has         uint8
}

// GPUInfo identifies one GPU seen in a log.
type GPUInfo struct {
	Key   string // what tells GPUs apart: the UUID, host/index, or index
	Index int    // the GPU's index on its host; -1 when unknown
	UUID  string
	Host  string
	Model string // as the log names it ("NVIDIA H100 80GB HBM3")
}

// Label is how a GPU is named in tables: its index, with the host when the
// log spans hosts.
func (g GPUInfo) Label(multiHost bool) string {
	idx := g.Key
	if g.Index >= 0 {
		idx = fmt.Sprint(g.Index)
	}
	if multiHost && g.Host != "" {
		return g.Host + "/" + idx
	}
	return idx
}

// BadLine is a line that could not be read.
type BadLine struct {
	Line int
	// Msg says what is wrong, in any language; Reason is it in English.
	Msg    i18n.Msg
	Reason string
	Text   string // the start of the line
}

// ParseReport says what a parse read and skipped.
type ParseReport struct {
	File   string
	Format Format
	Gzip   bool
	Bytes  int64 // bytes read from the file (compressed size for gzip)
	// DataBytes is the size of the text parsed (uncompressed).
	DataBytes int64
	Lines     int
	Samples   int64
	// Skipped lines were malformed; Bad holds the first few of them.
	Skipped int
	Bad     []BadLine
	// Ignored lines are well formed but carry nothing used (comments,
	// headers, other metrics, blank lines).
	Ignored int
	GPUs    []GPUInfo
	// Timestamps reports whether samples carry times.
	Timestamps bool
	// Columns are the CSV columns used (nvidia-smi).
	Columns []string
	Notes   []i18n.Msg
}

// bad counts a malformed line; the first few keep what is wrong (a
// message key, rs.bad.*, and its arguments) and the line's start.
func (r *ParseReport) bad(line int, text []byte, key string, args ...any) {
	r.Skipped++
	if len(r.Bad) < maxBadReport {
		for i, a := range args {
			if b, ok := a.([]byte); ok {
				args[i] = string(b) // the parser reuses its buffers
			}
		}
		m := i18n.M(key, args...)
		r.Bad = append(r.Bad, BadLine{Line: line, Msg: m, Reason: m.String(), Text: truncate(text, 80)})
	}
}

// NoDataError is returned when nothing in a file could be read.
type NoDataError struct {
	File   string
	Format Format
	Lines  int
	First  *BadLine
	// Detail says why, when no line was read at all (rs.nodata.*).
	Detail i18n.Msg
}

func (e *NoDataError) Error() string { return e.Text(i18n.NewPrinter(i18n.EN)) }

// Text is the error in p's language.
func (e *NoDataError) Text(p *i18n.Printer) string {
	name := e.File
	if name == "" {
		name = "metrics"
	}
	switch {
	case e.First != nil:
		return p.T("rs.nodata.first", name, FormatMsg(e.Format), e.Lines, e.First.Line, e.First.Msg)
	case e.Detail.Key != "":
		return p.T("rs.nodata.detail", name, e.Detail)
	}
	return p.T("rs.nodata.lines", name, FormatMsg(e.Format), e.Lines)
}

func formatName(f Format) string {
	switch f {
	case FormatNVSMI:
		return "nvidia-smi CSV"
	case FormatDCGM:
		return "DCGM exporter metrics"
	}
	return "unknown format"
}

// FormatName is the human name of a format.
func FormatName(f Format) string { return formatName(f) }

// FormatMsg is the format's name as a message (rs.format.*).
func FormatMsg(f Format) i18n.Msg {
	switch f {
	case FormatNVSMI, FormatDCGM:
		return i18n.M("rs.format." + string(f))
	}
	return i18n.M("rs.format.unknown")
}

// Options tune a parse.
type Options struct {
	Format Format
	// Columns name the fields of a CSV without a header line, in order
	// (nvidia-smi --query-gpu names). Default: timestamp, index,
	// utilization.gpu, utilization.memory, memory.used, memory.total.
	Columns []string
}

// ErrNoSink is returned by Parse without a sample function.
var ErrNoSink = errors.New("rightsize: Parse needs a sample function")

// Parse reads a metrics log from r — nvidia-smi CSV or DCGM exporter text,
// gzip-compressed or not, detected unless opt.Format says — and calls fn
// for every sample, in file order. The *Sample is reused between calls.
// Malformed lines are skipped and counted; Parse fails only when the
// stream cannot be read or holds no sample at all (*NoDataError).
func Parse(r io.Reader, name string, opt Options, fn func(*Sample)) (*ParseReport, error) {
	if fn == nil {
		return nil, ErrNoSink
	}
	rep := &ParseReport{File: name}
	cr := &countingReader{r: r}
	// Read in a goroutine of its own: reading the file (and decompressing
	// it) overlaps with parsing.
	raw := newReadAhead(cr)
	defer raw.Close()
	br := bufio.NewReaderSize(raw, 64<<10)
	src, gz, err := decompress(br)
	rep.Gzip = gz
	if err != nil {
		return rep, fmt.Errorf("%s: gzip: %w", name, err)
	}
	dc := cr
	if gz {
		ra := newReadAhead(src)
		defer ra.Close()
		dc = &countingReader{r: ra}
		br = bufio.NewReaderSize(dc, 64<<10)
	}
	format := opt.Format
	if format == FormatAuto {
		head, _ := br.Peek(16 << 10)
		format = detect(head)
		if format == FormatAuto {
			if len(bytes.TrimSpace(head)) == 0 {
				return rep, &NoDataError{File: name, Detail: i18n.M("rs.nodata.empty")}
			}
			line, _, _ := bytes.Cut(head, []byte("\n"))
			return rep, &NoDataError{File: name, Detail: i18n.M("rs.nodata.unknown", truncate(line, 60))}
		}
	}
	rep.Format = format
	lr := newLineReader(br)
	switch format {
	case FormatNVSMI:
		err = parseNVSMI(lr, rep, opt.Columns, fn)
	case FormatDCGM:
		err = parseDCGM(lr, rep, fn)
	default:
		return rep, fmt.Errorf("rightsize: unknown format %q", format)
	}
	rep.Lines = lr.n
	rep.Bytes, rep.DataBytes = cr.n, dc.n
	if err == nil {
		err = lr.err()
	}
	if err != nil {
		if rep.Samples == 0 {
			return rep, fmt.Errorf("%s: line %d: %w", name, lr.n, err)
		}
		// A truncated or damaged file (a gzip cut short, a log still being
		// written): keep what was read.
		rep.Notes = append(rep.Notes, i18n.M("rs.note.stopped", lr.n, err.Error(), rep.Samples))
	}
	if rep.Samples == 0 {
		e := &NoDataError{File: name, Format: format, Lines: rep.Lines}
		if len(rep.Bad) > 0 {
			e.First = &rep.Bad[0]
		} else if format == FormatDCGM {
			e.Detail = i18n.M("rs.nodata.no_dcgm")
		}
		return rep, e
	}
	return rep, nil
}

// detect guesses the format from the start of a file: nvidia-smi CSV has
// its column names or commas on the first line; DCGM exporter text names
// DCGM_ fields or starts with Prometheus comments.
func detect(head []byte) Format {
	rest := head
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		line = trimSpace(dropCR(line))
		if len(line) == 0 {
			continue
		}
		switch {
		case bytes.Contains(line, []byte("utilization.gpu")) || bytes.Contains(line, []byte("memory.used")):
			return FormatNVSMI
		case bytes.Contains(head, []byte("DCGM_")) && (line[0] == '#' || isMetricName(line)):
			return FormatDCGM
		case line[0] == '#':
			return FormatDCGM
		case bytes.IndexByte(line, ',') >= 0 && !isMetricName(line):
			return FormatNVSMI
		}
		return FormatAuto
	}
	return FormatAuto
}

// isMetricName reports whether line starts like a Prometheus sample.
func isMetricName(line []byte) bool {
	n := metricNameLen(line)
	return n > 0 && n < len(line) && (line[n] == '{' || line[n] == ' ' || line[n] == '\t')
}

// parseTimestamp reads "2026/11/30 10:00:00.123" (nvidia-smi), also with
// dashes, a T, and a trailing Z or ±hh:mm offset, as milliseconds since
// 1970 in the clock written.
func parseTimestamp(b []byte) (int64, bool) {
	if len(b) < 19 {
		return 0, false
	}
	y, ok1 := parseInt(b[0:4])
	mo, ok2 := parseInt(b[5:7])
	d, ok3 := parseInt(b[8:10])
	h, ok4 := parseInt(b[11:13])
	mi, ok5 := parseInt(b[14:16])
	s, ok6 := parseInt(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || (b[4] != '/' && b[4] != '-') || b[7] != b[4] ||
		(b[10] != ' ' && b[10] != 'T') || b[13] != ':' || b[16] != ':' {
		return slowTimestamp(b)
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	ms := int64(0)
	rest := b[19:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		scale := int64(100)
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			ms += int64(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return 0, false
		}
		rest = rest[i:]
	}
	switch {
	case len(rest) == 0:
	case len(rest) == 1 && rest[0] == 'Z':
	default:
		return slowTimestamp(b)
	}
	return (daysFromCivil(y, mo, d)*86400+h*3600+mi*60+s)*1000 + ms, true
}

var timestampLayouts = []string{time.RFC3339Nano, "2006/01/02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999 -0700"}

func slowTimestamp(b []byte) (int64, bool) {
	s := string(b)
	for _, l := range timestampLayouts {
		if t, err := time.Parse(l, s); err == nil {
			// Keep the wall clock as written: the hour-of-day profile is in
			// the log's own time.
			_, off := t.Zone()
			return t.UnixMilli() + int64(off)*1000, true
		}
	}
	return 0, false
}
