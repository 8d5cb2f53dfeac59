package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// healthCmd asks a running server whether it is healthy: a container's
// health check, where the image has no shell and no curl.
func (a *app) healthCmd() *cobra.Command {
	var addr string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check that a running gpuscout server answers /healthz (exit 0 when it does)",
		Example: `  gpuscout health                         # the server on 127.0.0.1:8080
  gpuscout health --addr 127.0.0.1:9090`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			url := addr
			if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
				url = "http://" + url
			}
			url = strings.TrimSuffix(url, "/") + "/healthz"
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return usagef("pass --addr HOST:PORT.", "bad address %q: %v", addr, err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("health: %w", err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("health: %s answered %s", url, resp.Status)
			}
			fmt.Fprintln(a.io.Out, strings.TrimSpace(string(body)))
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the server's address")
	cmd.Flags().DurationVar(&timeout, "timeout", 3*time.Second, "how long to wait for the answer")
	return cmd
}
