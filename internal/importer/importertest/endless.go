package importertest

import "io"

// Endless is a reader of Prefix, then N bytes of Fill, then Suffix,
// generated as read (nothing is held); Read counts the bytes served.
type Endless struct {
	Prefix, Suffix string
	Fill           byte
	N, Served      int64
}

// Read implements io.Reader.
func (e *Endless) Read(p []byte) (int, error) {
	total := int64(len(e.Prefix)) + e.N + int64(len(e.Suffix))
	if e.Served >= total {
		return 0, io.EOF
	}
	i := 0
	for ; i < len(p) && e.Served < total; i++ {
		switch {
		case e.Served < int64(len(e.Prefix)):
			p[i] = e.Prefix[e.Served]
		case e.Served < int64(len(e.Prefix))+e.N:
			p[i] = e.Fill
		default:
			p[i] = e.Suffix[e.Served-int64(len(e.Prefix))-e.N]
		}
		e.Served++
	}
	return i, nil
}
