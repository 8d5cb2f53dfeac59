package lineage

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// TestAWSCatalogTypesMatchInstances requires awsCatalogTypes to list exactly
// the instance types of instances/aws.csv.
func TestAWSCatalogTypesMatchInstances(t *testing.T) {
	f, err := os.Open(filepath.Join(dataDir, "instances", "aws.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	inFile := map[string]bool{}
	for _, r := range recs[1:] {
		inFile[r[1]] = true
		if _, ok := awsCatalogTypes[r[1]]; !ok {
			t.Errorf("instances/aws.csv has %s; add it to awsCatalogTypes", r[1])
		}
	}
	for name := range awsCatalogTypes {
		if !inFile[name] {
			t.Errorf("awsCatalogTypes lists %s, which instances/aws.csv lacks", name)
		}
	}
}
