import re,sys
types=set(sys.argv[1].split(','))
lines=open(sys.argv[2]).read().split('\n')
out=[]
i=0
# header: everything up to and including "  instance:"
while True:
    out.append(lines[i]); 
    if lines[i]=='  instance:': break
    i+=1
i+=1
keep=False
while i<len(lines):
    l=lines[i]
    if not l.startswith('     ') and not l.startswith('    ') : break   # end of compute.instance
    m=re.match(r'^    ([a-z0-9-]+):$',l)
    if m: keep = m.group(1) in types
    if keep: out.append(l)
    i+=1
sys.stdout.write('\n'.join(out)+'\n')
