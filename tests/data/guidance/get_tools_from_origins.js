// From the WebMCP authoring guidance (presented there as correct).
const cartTools = await document.modelContext.getTools({
  fromOrigins: ["https://cart.example.com"],
});
