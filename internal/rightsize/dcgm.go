package rightsize

import (
	"bytes"
	"math"
)

// DCGM exporter fields read (names and units per NVIDIA's dcgm-exporter
// default counters: GPU_UTIL and MEM_COPY_UTIL in %, FB_* in MiB,
// PROF_GR_ENGINE_ACTIVE a 0–1 ratio).
type dcgmField uint8

const (
	dUnused dcgmField = iota
	dGPUUtil
	dGREngine
	dMemCopy
	dFBUsed
	dFBFree
	dFBTotal
	dFBReserved
)

func dcgmFieldOf(name []byte) dcgmField {
	if !bytes.HasPrefix(name, []byte("DCGM_FI_")) {
		return dUnused
	}
	switch string(name[8:]) {
	case "DEV_GPU_UTIL":
		return dGPUUtil
	case "PROF_GR_ENGINE_ACTIVE":
		return dGREngine
	case "DEV_MEM_COPY_UTIL":
		return dMemCopy
	case "DEV_FB_USED":
		return dFBUsed
	case "DEV_FB_FREE":
		return dFBFree
	case "DEV_FB_TOTAL":
		return dFBTotal
	case "DEV_FB_RESERVED":
		return dFBReserved
	}
	return dUnused
}

// metricNameLen is the length of the Prometheus metric name at the start
// of line ([a-zA-Z_:][a-zA-Z0-9_:]*), 0 when there is none.
func metricNameLen(line []byte) int {
	for i, c := range line {
		switch {
		case c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case c >= '0' && c <= '9' && i > 0:
		default:
			return i
		}
	}
	return len(line)
}

// dcgmPending gathers the fields of one GPU's current scrape.
type dcgmPending struct {
	has                                            uint16
	ts                                             int64
	tsKnown                                        bool
	util, gr, memCopy, used, free, total, reserved float64
}

// dcgmLabels are the labels that identify a GPU.
type dcgmLabels struct {
	gpu, uuid, host, model, instance []byte
}

// parseLabels reads `{k="v",k2="v2"}` starting at line[0] == '{' and
// returns the rest of the line after the closing brace.
func parseLabels(line []byte, l *dcgmLabels, scratch *[]byte) ([]byte, string) {
	i := 1
	*scratch = (*scratch)[:0]
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == ',') {
			i++
		}
		if i >= len(line) {
			return nil, "rs.bad.unterminated"
		}
		if line[i] == '}' {
			return line[i+1:], ""
		}
		start := i
		for i < len(line) && line[i] != '=' && line[i] != ' ' {
			i++
		}
		name := line[start:i]
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if len(name) == 0 || i >= len(line) || line[i] != '=' {
			return nil, "rs.bad.label_no_value"
		}
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) || line[i] != '"' {
			return nil, "rs.bad.label_unquoted"
		}
		i++
		vstart := i
		escaped := false
		for i < len(line) && line[i] != '"' {
			if line[i] == '\\' {
				escaped = true
				i++
			}
			i++
		}
		if i >= len(line) {
			return nil, "rs.bad.unterminated_value"
		}
		val := line[vstart:i]
		i++
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) || (line[i] != ',' && line[i] != '}') {
			return nil, "rs.bad.not_closed"
		}
		if escaped {
			// unescape into scratch; labels we keep are rarely escaped
			off := len(*scratch)
			for j := 0; j < len(val); j++ {
				c := val[j]
				if c == '\\' && j+1 < len(val) {
					j++
					switch val[j] {
					case 'n':
						c = '\n'
					default:
						c = val[j]
					}
				}
				*scratch = append(*scratch, c)
			}
			val = (*scratch)[off:]
		}
		switch string(name) {
		case "gpu":
			l.gpu = val
		case "UUID":
			l.uuid = val
		case "Hostname":
			l.host = val
		case "modelName":
			l.model = val
		case "GPU_I_ID":
			l.instance = val
		}
	}
}

// parseDCGM reads Prometheus text exposition from dcgm-exporter: one or
// many scrapes, samples with or without millisecond timestamps, # HELP and
// # TYPE lines. The fields of one GPU's scrape are joined into one sample;
// a new scrape starts when a field repeats or the timestamp moves.
func parseDCGM(lr *lineReader, rep *ParseReport, fn func(*Sample)) error {
	gpus := newGPUTable(rep)
	var pend []dcgmPending
	var s Sample
	var key, scratch []byte
	sawTime := false
	flush := func(id int) {
		p := &pend[id]
		if p.has == 0 {
			return
		}
		s = Sample{GPU: id}
		switch {
		case p.has&(1<<dGPUUtil) != 0:
			s.Util, s.Has = p.util, s.Has|HasUtil
		case p.has&(1<<dGREngine) != 0:
			s.Util, s.Has = p.gr*100, s.Has|HasUtil
		}
		if p.has&(1<<dMemCopy) != 0 {
			s.MemUtil, s.Has = p.memCopy, s.Has|HasMemUtil
		}
		if p.has&(1<<dFBUsed) != 0 {
			s.MemUsedMiB, s.Has = p.used, s.Has|HasMemUsed
			switch {
			case p.has&(1<<dFBTotal) != 0 && p.total > 0:
				s.MemTotalMiB, s.Has = p.total, s.Has|HasMemTotal
			case p.has&(1<<dFBFree) != 0:
				s.MemTotalMiB, s.Has = p.used+p.free+p.reserved, s.Has|HasMemTotal
			}
		}
		if p.tsKnown {
			s.TimeMs, s.Has = p.ts, s.Has|HasTime
		}
		*p = dcgmPending{}
		if s.Has&(HasUtil|HasMemUsed) == 0 {
			return
		}
		s.Seq = gpus.nextSeq(id)
		rep.Samples++
		fn(&s)
	}
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
		n := metricNameLen(line)
		if n == 0 {
			rep.bad(lr.n, line, "rs.bad.no_metric")
			continue
		}
		name, rest := line[:n], line[n:]
		var labels dcgmLabels
		if len(rest) > 0 && rest[0] == '{' {
			var why string
			rest, why = parseLabels(rest, &labels, &scratch)
			if why != "" {
				rep.bad(lr.n, line, why)
				continue
			}
		}
		if len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
			rep.bad(lr.n, line, "rs.bad.no_value")
			continue
		}
		rest = trimSpace(rest)
		valTok, tsTok := rest, []byte(nil)
		if i := bytes.IndexAny(rest, " \t"); i >= 0 {
			valTok, tsTok = rest[:i], trimSpace(rest[i+1:])
		}
		field := dcgmFieldOf(name)
		if field == dUnused {
			rep.Ignored++
			continue
		}
		v, ok := parseFloat(valTok)
		if !ok {
			rep.bad(lr.n, line, "rs.bad.not_finite", name, truncate(valTok, 30))
			continue
		}
		var ts int64
		tsKnown := false
		if len(tsTok) > 0 {
			t, ok := parseSignedInt(tsTok)
			if !ok {
				rep.bad(lr.n, line, "rs.bad.ts_int", truncate(tsTok, 30))
				continue
			}
			ts, tsKnown = t, true
		}
		switch field {
		case dGPUUtil, dMemCopy:
			if v < 0 || v > 100 {
				rep.bad(lr.n, line, "rs.bad.pct_range", name, v)
				continue
			}
		case dGREngine:
			if v < 0 || v > 1 {
				rep.bad(lr.n, line, "rs.bad.ratio", name, v)
				continue
			}
		default:
			if v < 0 {
				rep.bad(lr.n, line, "rs.bad.neg_mem", name)
				continue
			}
		}
		if labels.gpu == nil && labels.uuid == nil {
			rep.bad(lr.n, line, "rs.bad.no_gpu", name)
			continue
		}
		key = key[:0]
		if labels.uuid != nil {
			key = append(key, labels.uuid...)
		} else {
			if labels.host != nil {
				key = append(append(key, labels.host...), '/')
			}
			key = append(key, labels.gpu...)
		}
		if labels.instance != nil {
			key = append(append(key, "/mig"...), labels.instance...)
		}
		idx := int64(-1)
		if labels.gpu != nil {
			if n, ok := parseInt(labels.gpu); ok {
				idx = n
			}
		}
		id := gpus.id(key, func() GPUInfo {
			return GPUInfo{Index: int(idx), UUID: string(labels.uuid), Host: string(labels.host), Model: string(labels.model)}
		})
		for len(pend) <= id {
			pend = append(pend, dcgmPending{})
		}
		p := &pend[id]
		bit := uint16(1) << field
		if p.has&bit != 0 || (p.has != 0 && tsKnown && p.tsKnown && math.Abs(float64(ts-p.ts)) > 5000) {
			flush(id)
			p = &pend[id]
		}
		if p.has == 0 && tsKnown {
			p.ts, p.tsKnown = ts, true
			sawTime = true
		}
		p.has |= bit
		switch field {
		case dGPUUtil:
			p.util = v
		case dGREngine:
			p.gr = v
		case dMemCopy:
			p.memCopy = v
		case dFBUsed:
			p.used = v
		case dFBFree:
			p.free = v
		case dFBTotal:
			p.total = v
		case dFBReserved:
			p.reserved = v
		}
	}
	for id := range pend {
		flush(id)
	}
	rep.Timestamps = sawTime
	return nil
}
