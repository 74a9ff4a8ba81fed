// Answers the JSON array of requests on stdin with the module (argv[2]: drafti.js, argv[3]:
// drafti.wasm) under Node, and prints the JSON array of answers; a search's answer gets
// `infos`, the number of depth reports it sent. Used by tests/node.rs.
const Drafti = require(process.argv[2]);
const fs = require('fs');
(async () => {
  const drafti = await Drafti.load(fs.readFileSync(process.argv[3]));
  const requests = JSON.parse(fs.readFileSync(0, 'utf8'));
  const answers = requests.map((request) => {
    let infos = 0;
    try {
      const answer = drafti.call(request, () => { infos += 1; });
      if (request.op === 'search') answer.infos = infos;
      return answer;
    } catch (err) {
      return { error: err.message };
    }
  });
  process.stdout.write(JSON.stringify(answers));
})().catch((err) => {
  process.stderr.write(String(err && err.stack || err));
  process.exit(1);
});
