package server

import "net/http"

// jobRoutes registers the cost, estimate, spot and price-history endpoints and pages.
func (s *Server) jobRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/cost", s.cached(s.api(s.apiCost)))
	mux.HandleFunc("GET /api/v1/estimate", s.cached(s.api(s.apiEstimate)))
	mux.HandleFunc("GET /api/v1/spot", s.cached(s.api(s.apiSpot)))
	mux.Handle("GET /api/v1/history", s.PriceHistoryHandler(s.historySource()))
	mux.HandleFunc("GET /spot", s.cached(s.pageSpot))
	mux.HandleFunc("GET /claims", s.cached(s.pageClaims))
	mux.HandleFunc("GET /estimate", s.cached(s.pageEstimate))
	mux.HandleFunc("GET /rightsize", s.cached(s.pageRightsize))
	mux.HandleFunc("POST /rightsize", s.pageRightsize)
}

// historySource is where price history comes from: Config.History (the
// database of imported snapshots); nil makes /api/v1/history answer 404.
func (s *Server) historySource() HistorySource { return s.cfg.History }
