// Every npm script starts here. The project runs on Node 24 LTS, installed as the devDependency `node`;
// when npm skipped that package's install script, npm falls back to the machine's own Node: say so loudly.
const major = Number(process.versions.node.split(".")[0]);
if (major !== 24) {
  console.error(
    `\n✖ This project needs Node.js 24 LTS, but npm is running Node.js ${process.version}.\n` +
      `  The devDependency "node" provides it. Run \`npm install\` (its install script must be allowed:\n` +
      `  package.json "allowScripts" lists it), then run the command again.\n`,
  );
  process.exit(1);
}
