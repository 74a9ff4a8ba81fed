// The module's searches timed under Node: argv[2] drafti.js, argv[3] drafti.wasm; stdin a JSON
// array of search requests. After one warm-up search (the compiler's tier-up), each request
// is searched and its process CPU time measured; prints [{nodes, cpu_us}, ...].
const Drafti = require(process.argv[2]);
const fs = require('fs');
(async () => {
  const drafti = await Drafti.load(fs.readFileSync(process.argv[3]));
  const requests = JSON.parse(fs.readFileSync(0, 'utf8'));
  drafti.search(requests[0]);
  const out = requests.map((request) => {
    const before = process.cpuUsage();
    const answer = drafti.search(request);
    const used = process.cpuUsage(before);
    return { nodes: answer.nodes, cpu_us: used.user + used.system };
  });
  process.stdout.write(JSON.stringify(out));
})();
