console.log("khaelor")
