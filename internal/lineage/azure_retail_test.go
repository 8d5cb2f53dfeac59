package lineage

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// What does an ND96isr H100 v5 cost in westus on pay-as-you-go Linux and
// on Spot, and is a Spot meter at the full price a spot offer? The Linux
// Consumption meter, its Spot meter when it is below it; Windows and Low
// Priority meters never price a Linux offer.
func TestAzureRetailRows(t *testing.T) {
	m := rowsByKey(t, azureRetailWestus(), "testdata/azure-retail-westus")
	if len(m) != 45 {
		t.Errorf("got %d rows, want 45 (23 on-demand, 22 spot)", len(m))
	}
	if _, ok := m["Standard_ND96isr_H200_v5/westus/spot"]; ok {
		t.Error("ND96isr H200 v5 spot kept: its Spot meter equals the pay-as-you-go price")
	}
	for key, r := range m {
		if r.AsOf != "2026-09-01" || strings.Contains(r.Notes, "Windows") {
			t.Errorf("%s: as_of %q, notes %q", key, r.AsOf, r.Notes)
		}
	}
	head := "currencyCode,tierMinimumUnits,retailPrice,unitPrice,armRegionName,location,effectiveStartDate,meterId,meterName,productId,skuId,productName,skuName,serviceName,serviceId,serviceFamily,unitOfMeasure,type,isPrimaryMeterRegion,armSkuName\n"
	one := "USD,0.0,%[1]s,%[1]s,westus,US West,2026-01-01T00:00:00Z,m,%[2]s,p,s,%[3]s,n,Virtual Machines,x,Compute,1 Hour,Consumption,True,Standard_NC6s_v3\n"
	excerpt := fstest.MapFS{"prices.csv": {Data: []byte(head +
		fmt.Sprintf(one, "4.5", "NC6s v3", "Virtual Machines NCSv3 Series Windows") +
		fmt.Sprintf(one, "0.6", "NC6s v3 Low Priority", "Virtual Machines NCSv3 Series"))}}
	if _, err := azureRetailWestus().Generate(excerpt); err == nil || !strings.Contains(err.Error(), "Standard_NC12s_v3") {
		t.Errorf("sizes with only Windows and Low Priority meters: got %v, want an error naming a size", err)
	}
}
