package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// catalogPublishCmd writes a read-only snapshot of the database for the
// servers of a team to share (serve --db FILE --db-read-only).
func (a *app) catalogPublishCmd() *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "publish --to FILE",
		Short: "Write a read-only snapshot of the imported prices for servers to share",
		Long: `publish writes a compacted, consistent copy of the database to FILE for any number of
'gpuscout serve --db FILE --db-read-only' replicas to read, for example from a volume they
mount read-only. The copy is written beside FILE and renamed over it, so a server sees the old
snapshot or the new one, never a half-written file; servers reload it when it changes (--watch).
Run it after 'catalog update' or 'catalog import', in the same job.`,
		Example: `  gpuscout catalog update --provider aws,azure,gcp --db /work/gpuscout.db
  gpuscout catalog publish --db /work/gpuscout.db --to /snapshot/gpuscout.db
  gpuscout serve --addr 0.0.0.0:8080 --db /snapshot/gpuscout.db --db-read-only --watch 30s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if to == "" {
				return usagef("name the snapshot file, e.g. --to /snapshot/gpuscout.db.", "publish needs --to FILE")
			}
			if a.dbReadOnly {
				return usagef("publish from the database the update job writes, without --db-read-only.", "cannot publish from a read-only database")
			}
			if st, err := os.Stat(filepath.Dir(to)); err != nil || !st.IsDir() {
				return usagef("create the directory first, or mount the shared volume there.", "publish: the directory of %s does not exist", to)
			}
			src := a.dbPath()
			if abs1, err1 := filepath.Abs(src); err1 == nil {
				if abs2, err2 := filepath.Abs(to); err2 == nil && abs1 == abs2 {
					return usagef("publish to another file than --db.", "publish: %s is the database itself", to)
				}
			}
			db, err := a.openDB(cmd.Context(), false)
			if err != nil {
				return err
			}
			if db == nil {
				return usagef("import data first with gpuscout catalog import or update.", "no database at %s", src)
			}
			defer db.Close()
			if err := db.Publish(cmd.Context(), to); err != nil {
				return err
			}
			st, err := os.Stat(to)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.io.Err, "published %s (%d bytes) from %s\n", to, st.Size(), src)
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "the snapshot file to write (replaced atomically)")
	return cmd
}
