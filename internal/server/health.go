package server

import (
	"net/http"
	"time"
)

// Probes. /livez says the process serves HTTP: it touches no data and takes
// no lock, so it answers in microseconds however busy the server is (a
// Kubernetes liveness probe with a 1 s timeout must never fail because a
// big catalog is being summarised). /readyz says whether to send traffic:
// 503 until data is loaded and once shutdown begins, so that a replica
// drains; it reports the served snapshot, its age and whether the prices
// are older than the refresh schedule (Config.StaleAfter). /healthz keeps
// its JSON status for people and scripts. All three read only values
// computed once per loaded snapshot (snapshotFacts).

// snapshotFacts are what the probes report about one loaded Data, computed
// once when it is loaded: a probe never walks the catalog.
type snapshotFacts struct {
	offers int
	// newestPrice is the newest dated offer's as-of date.
	newestPrice time.Time
}

func computeFacts(d *Data) snapshotFacts {
	st := d.Catalog.Stats()
	return snapshotFacts{offers: st.Offers, newestPrice: st.NewestAsOf}
}

// snapshotAge is how old the served prices are: since the snapshot was
// written when the data came from one, else (the embedded catalog alone)
// since its newest price's as-of date.
func (d *Data) snapshotAge(now time.Time) time.Duration {
	from := d.SnapshotTime
	if from.IsZero() {
		from = d.facts.newestPrice
	}
	if from.IsZero() || now.Before(from) {
		return 0
	}
	return now.Sub(from)
}

// snapshotName names the served snapshot: the database it came from, or
// "embedded" when only the catalog built into the binary is served.
func (d *Data) snapshotName() string {
	if d.Snapshot == "" {
		return "embedded"
	}
	return d.Snapshot
}

// probeDoc is the JSON of /readyz and /healthz.
type probeDoc struct {
	Status         string `json:"status"`
	Offers         int    `json:"offers"`
	ImportedOffers int    `json:"imported_offers"`
	Loaded         string `json:"loaded"`
	NewestPrice    string `json:"newest_price,omitempty"`
	Snapshot       string `json:"snapshot"`
	SnapshotTime   string `json:"snapshot_time,omitempty"`
	AgeSeconds     int64  `json:"age_seconds"`
	// Stale is true when the prices are older than Config.StaleAfter (the
	// refresh schedule plus its slack): the price update did not run.
	Stale      bool   `json:"stale"`
	StaleAfter string `json:"stale_after,omitempty"`
}

func (s *Server) probeDoc(d *Data, status string) probeDoc {
	age := d.snapshotAge(s.cfg.Now())
	doc := probeDoc{Status: status, Offers: d.facts.offers, ImportedOffers: d.Imported,
		Loaded: d.Loaded.UTC().Format(time.RFC3339), Snapshot: d.snapshotName(), AgeSeconds: int64(age / time.Second)}
	if !d.facts.newestPrice.IsZero() {
		doc.NewestPrice = d.facts.newestPrice.Format("2006-01-02")
	}
	if !d.SnapshotTime.IsZero() {
		doc.SnapshotTime = d.SnapshotTime.UTC().Format(time.RFC3339)
	}
	if s.cfg.StaleAfter > 0 {
		doc.StaleAfter = s.cfg.StaleAfter.String()
		doc.Stale = age > s.cfg.StaleAfter
	}
	return doc
}

// probes answers /livez and /readyz ahead of every other handler: no
// access log, no metrics lock, no host check (probes address the pod's IP).
func (s *Server) probes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/livez":
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				break
			}
			h := w.Header()
			h.Set("Content-Type", "text/plain; charset=utf-8")
			h.Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("ok\n"))
			return
		case "/readyz":
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				break
			}
			w.Header().Set("Cache-Control", "no-store")
			d := s.Data()
			switch {
			case d == nil:
				writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "loading"})
			case s.draining.Load():
				writeJSON(w, http.StatusServiceUnavailable, s.probeDoc(d, "draining"))
			default:
				writeJSON(w, http.StatusOK, s.probeDoc(d, "ready"))
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// healthz is the JSON status for people and scripts (gpuscout health, the
// image's HEALTHCHECK): the readiness document, 200 while data is served.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, s.probeDoc(s.Data(), "ok"))
}
