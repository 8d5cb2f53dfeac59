package rightsize

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// CSV column roles.
type colRole uint8

const (
	colIgnore colRole = iota
	colTimestamp
	colIndex
	colUUID
	colBus
	colName
	colUtil
	colMemUtil
	colMemUsed
	colMemTotal
	colMemFree
)

// nvsmiColumns maps nvidia-smi --query-gpu field names (and a few
// spellings of them) to roles.
var nvsmiColumns = map[string]colRole{
	"timestamp": colTimestamp, "index": colIndex, "uuid": colUUID, "gpu_uuid": colUUID,
	"pci.bus_id": colBus, "gpu_bus_id": colBus, "name": colName, "gpu_name": colName,
	"utilization.gpu": colUtil, "utilization.memory": colMemUtil, "memory.used": colMemUsed,
	"memory.total": colMemTotal, "memory.free": colMemFree,
}

// DefaultColumns are the fields of a headerless CSV (--format=csv,noheader)
// unless told otherwise.
var DefaultColumns = []string{"timestamp", "index", "utilization.gpu", "utilization.memory", "memory.used", "memory.total"}

// columnName normalises a header cell: "utilization.gpu [%]" → "utilization.gpu".
func columnName(cell string) string {
	s := strings.ToLower(strings.TrimSpace(cell))
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

type csvLayout struct {
	names []string
	roles []colRole
	has   [colMemFree + 1]bool
}

func newLayout(names []string) (*csvLayout, error) {
	l := &csvLayout{}
	for _, n := range names {
		n = columnName(n)
		r, ok := nvsmiColumns[n]
		if !ok {
			r = colIgnore
		}
		l.names = append(l.names, n)
		l.roles = append(l.roles, r)
		l.has[r] = true
	}
	if !l.has[colUtil] && !l.has[colMemUsed] {
		return nil, fmt.Errorf("columns %s: need utilization.gpu or memory.used", strings.Join(l.names, ", "))
	}
	return l, nil
}

// ValidateColumns checks a --columns list.
func ValidateColumns(names []string) error {
	for _, n := range names {
		if _, ok := nvsmiColumns[columnName(n)]; !ok {
			return fmt.Errorf("unknown nvidia-smi column %q (known: timestamp, index, uuid, pci.bus_id, name, utilization.gpu, utilization.memory, memory.used, memory.total, memory.free)", n)
		}
	}
	_, err := newLayout(names)
	return err
}

// isCSVHeader reports whether a CSV line is a header: its cells are column
// names, not values. Data rows start with a digit (a timestamp or an
// index) unless the columns put a name first, so most rows cost one byte.
func isCSVHeader(line []byte) bool {
	if len(line) == 0 || (line[0] >= '0' && line[0] <= '9') {
		return false
	}
	return bytes.Contains(line, []byte("utilization.")) || bytes.Contains(line, []byte("memory.")) ||
		bytes.HasPrefix(line, []byte("timestamp")) || bytes.HasPrefix(line, []byte("index,"))
}

const maxFields = 64

// gpuTable interns GPU keys to dense ids without allocating per lookup.
type gpuTable struct {
	ids    map[string]int
	rep    *ParseReport
	seq    []int64
	last   []byte // key of the last lookup
	lastID int
	small  [64]int // id+1 of the GPUs keyed "0" … "63"
}

func newGPUTable(rep *ParseReport) *gpuTable {
	return &gpuTable{ids: map[string]int{}, rep: rep, lastID: -1}
}

// id returns the dense id of key, registering info for a new GPU.
func (t *gpuTable) id(key []byte, info func() GPUInfo) int {
	// Small indexes ("0" … "63"), the usual key, skip the map.
	if n := len(key); n == 1 || (n == 2 && key[0] != '0') {
		small := int(key[0] - '0')
		if n == 2 {
			small = small*10 + int(key[1]-'0')
		}
		if small >= 0 && small < len(t.small) && key[0] <= '9' && key[n-1] <= '9' && key[n-1] >= '0' {
			if id := t.small[small]; id > 0 {
				return id - 1
			}
			id := t.lookup(key, info)
			t.small[small] = id + 1
			return id
		}
	}
	return t.lookup(key, info)
}

func (t *gpuTable) lookup(key []byte, info func() GPUInfo) int {
	if t.lastID >= 0 && bytes.Equal(key, t.last) {
		return t.lastID
	}
	id, ok := t.ids[string(key)]
	if !ok {
		id = len(t.rep.GPUs)
		g := info()
		g.Key = string(key)
		t.ids[g.Key] = id
		t.rep.GPUs = append(t.rep.GPUs, g)
		t.seq = append(t.seq, 0)
	}
	t.last = append(t.last[:0], key...)
	t.lastID = id
	return id
}

func (t *gpuTable) nextSeq(id int) int64 {
	s := t.seq[id]
	t.seq[id]++
	return s
}

// missing reports whether a CSV value is nvidia-smi's "no value": [N/A],
// [Not Supported], N/A or empty.
func missing(v []byte) bool {
	if len(v) == 0 || v[0] == '[' {
		return true
	}
	return (v[0] == 'N' || v[0] == 'n') && bytes.EqualFold(v, []byte("N/A"))
}

// unitValue parses "97 %", "70213 MiB", "97" or "70213": a number and an
// optional unit, in one pass for the usual integers; it returns the value
// in the base unit (percent, MiB).
func unitValue(v []byte) (float64, bool) {
	i := 0
	var n uint64
	for i < len(v) && v[i] >= '0' && v[i] <= '9' && i < 15 {
		n = n*10 + uint64(v[i]-'0')
		i++
	}
	var f float64
	if i > 0 && (i == len(v) || v[i] == ' ' || v[i] == '%' || v[i] == 'M') {
		f = float64(n)
	} else {
		// decimals, signs, exponents: the general path
		j := len(v)
		for j > 0 && (v[j-1] < '0' || v[j-1] > '9') && v[j-1] != '.' {
			j--
		}
		var ok bool
		if f, ok = parseFloat(trimSpace(v[:j])); !ok {
			return 0, false
		}
		i = j
	}
	unit := trimSpace(v[i:])
	switch string(unit) {
	case "", "%", "MiB", "MB":
		return f, true
	case "GiB", "GB":
		return f * 1024, true
	case "KiB", "KB":
		return f / 1024, true
	}
	return 0, false
}

// parseNVSMI reads nvidia-smi --query-gpu CSV: with a header (columns in
// any order; repeated headers of concatenated logs re-map the columns) or
// without one (columns from cols or DefaultColumns), with or without units.
func parseNVSMI(lr *lineReader, rep *ParseReport, cols []string, fn func(*Sample)) error {
	var layout *csvLayout
	if len(cols) > 0 {
		l, err := newLayout(cols)
		if err != nil {
			return err
		}
		layout = l
	}
	gpus := newGPUTable(rep)
	var tsc tsCache
	fields := make([][]byte, 0, maxFields)
	var s Sample
	var sawTime bool
	defaultLayout, _ := newLayout(DefaultColumns)
	for {
		line, long, ok := lr.next()
		if !ok {
			break
		}
		if long {
			rep.bad(lr.n, nil, "rs.bad.long", MaxLineBytes)
			continue
		}
		line = trimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			rep.Ignored++
			continue
		}
		if isCSVHeader(line) {
			var names []string
			for _, c := range bytes.Split(line, []byte(",")) {
				names = append(names, string(c))
			}
			l, err := newLayout(names)
			if err != nil {
				rep.bad(lr.n, line, "rs.bad.header", err.Error())
				continue
			}
			if len(cols) == 0 {
				layout = l
			}
			rep.Ignored++
			continue
		}
		if layout == nil {
			layout = defaultLayout
		}
		if rep.Columns == nil {
			rep.Columns = layout.names
		}
		fields = fields[:0]
		rest := line
		for {
			i := bytes.IndexByte(rest, ',')
			if i < 0 {
				fields = append(fields, trimSpace(rest))
				break
			}
			fields = append(fields, trimSpace(rest[:i]))
			rest = rest[i+1:]
			if len(fields) == maxFields {
				break
			}
		}
		if len(fields) != len(layout.roles) {
			rep.bad(lr.n, line, fieldsKey(len(fields)), len(fields), len(layout.roles), strings.Join(layout.names, ", "))
			continue
		}
		s = Sample{}
		var key, bus, uuid, index, name []byte
		var memFree float64
		var hasFree bool
		bad := false
		for i, r := range layout.roles {
			v := fields[i]
			switch r {
			case colIgnore:
			case colTimestamp:
				t, ok := tsc.parse(v)
				if !ok {
					rep.bad(lr.n, line, "rs.bad.ts", truncate(v, 40))
					bad = true
				}
				s.TimeMs, s.Has = t, s.Has|HasTime
			case colIndex:
				index = v
			case colUUID:
				if !missing(v) {
					uuid = v
				}
			case colBus:
				if !missing(v) {
					bus = v
				}
			case colName:
				name = v
			case colUtil, colMemUtil, colMemUsed, colMemTotal, colMemFree:
				if missing(v) {
					continue
				}
				f, ok := unitValue(v)
				if !ok {
					rep.bad(lr.n, line, "rs.bad.nan", layout.names[i], truncate(v, 40))
					bad = true
					break
				}
				switch r {
				case colUtil, colMemUtil:
					if f < 0 || f > 100 {
						rep.bad(lr.n, line, "rs.bad.pct_range_s", layout.names[i], truncate(v, 40))
						bad = true
					}
					if r == colUtil {
						s.Util, s.Has = f, s.Has|HasUtil
					} else {
						s.MemUtil, s.Has = f, s.Has|HasMemUtil
					}
				case colMemUsed:
					if f < 0 {
						rep.bad(lr.n, line, "rs.bad.used_neg")
						bad = true
					}
					s.MemUsedMiB, s.Has = f, s.Has|HasMemUsed
				case colMemTotal:
					if f <= 0 {
						rep.bad(lr.n, line, "rs.bad.total_pos")
						bad = true
					}
					s.MemTotalMiB, s.Has = f, s.Has|HasMemTotal
				case colMemFree:
					if f < 0 {
						rep.bad(lr.n, line, "rs.bad.free_neg")
						bad = true
					}
					memFree, hasFree = f, true
				}
			}
			if bad {
				break
			}
		}
		if bad {
			continue
		}
		if hasFree && s.Has&HasMemTotal == 0 && s.Has&HasMemUsed != 0 {
			s.MemTotalMiB, s.Has = s.MemUsedMiB+memFree, s.Has|HasMemTotal
		}
		if s.Has&(HasUtil|HasMemUsed) == 0 {
			rep.bad(lr.n, line, "rs.bad.no_values")
			continue
		}
		idx := int64(-1)
		if len(index) > 0 {
			n, ok := parseInt(index)
			if !ok {
				rep.bad(lr.n, line, "rs.bad.index", truncate(index, 20))
				continue
			}
			idx = n
		}
		switch {
		case uuid != nil:
			key = uuid
		case bus != nil:
			key = bus
		case index != nil:
			key = index
		default:
			key = []byte("0")
		}
		s.GPU = gpus.id(key, func() GPUInfo {
			return GPUInfo{Index: int(idx), UUID: string(uuid), Model: string(name)}
		})
		if idx >= 0 && rep.GPUs[s.GPU].Index < 0 {
			rep.GPUs[s.GPU].Index = int(idx)
		}
		s.Seq = gpus.nextSeq(s.GPU)
		if s.Has&HasTime != 0 {
			sawTime = true
		}
		rep.Samples++
		fn(&s)
	}
	rep.Timestamps = sawTime
	if layout != nil && !layout.has[colIndex] && !layout.has[colUUID] && !layout.has[colBus] && rep.Samples > 0 {
		rep.Notes = append(rep.Notes, i18n.M("rs.note.no_index"))
	}
	return nil
}

// fieldsKey is the bad-line message for a row of n fields.
func fieldsKey(n int) string {
	if n == 1 {
		return "rs.bad.fields1"
	}
	return "rs.bad.fields"
}

// tsCache speeds up timestamps that share their minute with the previous
// one ("2026/11/30 10:00:"): only the seconds are read again.
type tsCache struct {
	prefix [17]byte
	baseMs int64
	ok     bool
}

func (c *tsCache) parse(b []byte) (int64, bool) {
	if c.ok && len(b) >= 19 && string(b[:17]) == string(c.prefix[:]) {
		rest := b[17:]
		if rest[0] >= '0' && rest[0] <= '5' && rest[1] >= '0' && rest[1] <= '9' &&
			(len(rest) == 2 || (rest[2] == '.' && len(rest) <= 6)) {
			ms := int64(rest[0]-'0')*10_000 + int64(rest[1]-'0')*1000
			scale := int64(100)
			for i := 3; i < len(rest); i++ {
				d := rest[i]
				if d < '0' || d > '9' {
					return parseTimestamp(b)
				}
				ms += int64(d-'0') * scale
				scale /= 10
			}
			if len(rest) == 3 {
				return 0, false
			}
			return c.baseMs + ms, true
		}
	}
	t, ok := parseTimestamp(b)
	if ok && len(b) >= 19 {
		// remember the minute for the next rows
		var m [19]byte
		copy(m[:], b[:17])
		m[17], m[18] = '0', '0'
		if base, ok2 := parseTimestamp(m[:]); ok2 {
			copy(c.prefix[:], b[:17])
			c.baseMs, c.ok = base, true
		}
	}
	return t, ok
}
