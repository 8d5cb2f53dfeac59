package server

import "net/http"

// catalogRoutes registers the providers, regions and instance endpoints and pages.
func (s *Server) catalogRoutes(mux *http.ServeMux) {}
