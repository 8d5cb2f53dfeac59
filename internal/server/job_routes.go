package server

import "net/http"

// jobRoutes registers the cost, estimate, spot and price-history endpoints and pages.
func (s *Server) jobRoutes(mux *http.ServeMux) {}
