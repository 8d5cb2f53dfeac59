package server

import "net/http"

// catalogRoutes registers the providers, regions and instance endpoints and pages.
func (s *Server) catalogRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/providers", s.cached(s.api(s.apiProviders)))
	mux.HandleFunc("GET /api/v1/regions", s.cached(s.api(s.apiRegions)))
	// {name...}: an instance type's name may itself contain a slash.
	mux.HandleFunc("GET /api/v1/instances/{provider}/{name...}", s.cached(s.api(s.apiInstance)))
	mux.HandleFunc("GET /providers", s.cached(s.pageProviders))
	mux.HandleFunc("GET /instances/{provider}/{name...}", s.cached(s.pageInstance))
}
